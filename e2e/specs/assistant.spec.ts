import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { DEMO, landOnDashboard, signIn } from '../support/session.js';

// Issue 18: the chat assistant — the guided flow with a Rollback and a Reset, the client's chart and chart.png,
// and a typed question answered with the query it ran; the pop-up at 1440 and 390 px.
const demo = useDemoServer();
let page: Page;

beforeAll(async () => {
  page = await demo.newPage({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  await signIn(page, ...DEMO.admin);
  await landOnDashboard(page);
});
afterAll(async () => {
  await page?.context().close();
});

const chat = () => page.getByTestId('chat-widget');
const bot = () => chat().getByTestId('chat-bot');
const chip = (label: string) => chat().locator('.bolx-chat__chip', { hasText: label });
/** Picks a chip of the question being asked, once its answer (the next question) has arrived. */
async function pick(label: string, then: string) {
  await chip(label).first().click();
  await bot().filter({ hasText: then }).last().waitFor();
}

describe('the chat assistant', () => {
  it('guided: warehouse → client → query → time with a Rollback, the chart and chart.png, a typed question, Reset Chat', async () => {
    await page.getByRole('button', { name: 'Chat with AI Assistant' }).click();
    await chat().getByText('Chat with AI Assistant').waitFor();
    await chat().getByText('We are online!').waitFor();
    const box = await chat().boundingBox();
    expect([box?.width, box?.height]).toEqual([400, 570]);
    expect((await chat().getByTestId('chat-messages').boundingBox())?.height).toBe(430);

    await pick('Newark Fulfillment Center', 'Which client in Newark Fulfillment Center?');
    await pick('Acme Outdoor Gear', 'What would you like to know about Acme Outdoor Gear?');
    await pick('Orders Shipped', 'For which period?');
    // The first bot message has no Rollback; the later ones do. Back from the period to the query.
    expect(await chat().locator('.bolx-chat__row').first().getByRole('button', { name: 'Rollback' }).count()).toBe(0);
    await chat().locator('.bolx-chat__row').last().getByRole('button', { name: 'Rollback' }).click();
    await expect.poll(() => bot().last().textContent()).toContain('What would you like to know about Acme Outdoor Gear?');
    await pick('Orders Received', 'For which period?');
    await chip('last week').click();
    const query = chat().getByTestId('chat-query').last();
    await query.waitFor();
    expect(await query.textContent()).toMatch(/Query: Orders Received · client Acme Outdoor Gear · warehouse Newark Fulfillment Center · \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2} \(last week, America\/New_York\)/);
    await bot().filter({ hasText: 'Anything else about Acme Outdoor Gear?' }).waitFor();
    // The list follows the conversation to its end.
    await expect.poll(() => chat().getByTestId('chat-messages').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(2);
    await shot(page, 'assistant-answer-1440');

    await chat().getByRole('button', { name: 'View Data Chart of this client' }).click();
    const modal = page.locator('.ant-modal', { hasText: 'Orders Received · Acme Outdoor Gear' });
    await modal.locator('canvas').waitFor();
    await page.waitForTimeout(400); // the modal's fade-in, for the screenshot
    await shot(page, 'assistant-chart-1440');
    const [download] = await Promise.all([page.waitForEvent('download'), modal.getByRole('button', { name: 'Download Chart' }).click()]);
    expect(download.suggestedFilename()).toBe('chart.png');
    const chunks: Buffer[] = [];
    for await (const c of await download.createReadStream()) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).subarray(1, 4).toString()).toBe('PNG');
    await modal.getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'hidden' });

    // A question in the user's own words: answered with the same query, which is shown.
    await chat().getByRole('textbox').fill('how many orders did Acme ship last month in Newark?');
    await chat().getByRole('textbox').press('Enter');
    await chat().getByTestId('chat-user').filter({ hasText: 'how many orders did Acme ship last month in Newark?' }).waitFor();
    await expect.poll(() => chat().getByTestId('chat-query').last().textContent()).toContain('Query: Orders Shipped · client Acme Outdoor Gear · warehouse Newark Fulfillment Center');
    expect(await bot().filter({ hasText: /^Orders Shipped for Acme Outdoor Gear in Newark Fulfillment Center, last month: \d+/ }).count()).toBe(1);
    // One it cannot understand: said so, with the chips to go on from.
    await chat().getByRole('textbox').fill('what is the weather like');
    await chat().getByRole('textbox').press('Enter');
    await bot().filter({ hasText: 'I did not understand "weather like"' }).waitFor();
    await chip('Orders Trend').waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    const small = await chat().boundingBox();
    expect(small!.x).toBeGreaterThanOrEqual(0);
    expect(small!.x + small!.width).toBeLessThanOrEqual(390);
    await shot(page, 'assistant-390');
    await page.setViewportSize({ width: 1440, height: 900 });

    await chat().getByRole('button', { name: 'Reset Chat' }).click();
    await expect.poll(() => bot().count()).toBe(1);
    await chip('Newark Fulfillment Center').waitFor();
    expect(await chat().getByTestId('chat-user').count()).toBe(0);
    await shot(page, 'assistant-start-1440');
    await chat().getByRole('button', { name: 'Close chat' }).click();
    await chat().waitFor({ state: 'hidden' });
  });
});
