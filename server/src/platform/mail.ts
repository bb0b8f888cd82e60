import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../db/schema.js';
import { storeFile } from './files.js';

export interface MailAttachment { fileName: string; mimeType: string; bytes: Buffer }

export interface MailMessage {
  to: string;
  subject: string;
  body: string;
  /** Files sent with the mail: kept with it in the outbox (stored_file), so an unsent mail still has them. */
  attachments?: MailAttachment[];
}

/**
 * Mail goes into the outbox table in the caller's transaction, then is sent after commit through SMTP_URL.
 * Without SMTP_URL it stays in the outbox, which administrators can read (in demo mode, each mail is also
 * announced in the log, without its body).
 */
export class Mailer {
  private readonly transport: Transporter | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly opts: { smtpUrl?: string; from: string; logMail: boolean },
  ) {
    this.transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined;
  }

  async enqueue(tx: Executor, message: MailMessage, afterCommit: (fn: () => void) => void): Promise<void> {
    const row = await tx
      .insertInto('mail_outbox')
      .values({ to_address: message.to, subject: message.subject, body: message.body, attempts: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const a of message.attachments ?? []) {
      const file = await storeFile(tx, { ...a, createdBy: null });
      await tx.insertInto('mail_attachment').values({ mail_id: row.id, file_id: file.id }).execute();
    }
    afterCommit(() => void this.deliver(row.id, message));
  }

  private async deliver(id: number, message: MailMessage): Promise<void> {
    // Never the body: it carries reset links and pins. Administrators read it in the outbox.
    if (this.opts.logMail) this.log.info({ mailId: id, mailTo: message.to, subject: message.subject }, 'mail (demo mode): the body is in the outbox, POST /Common/Mail/GetOutbox');
    if (!this.transport) return;
    try {
      await this.transport.sendMail({ from: this.opts.from, to: message.to, subject: message.subject, text: message.body, attachments: message.attachments?.map((a) => ({ filename: a.fileName, content: a.bytes, contentType: a.mimeType })) });
      await this.db.updateTable('mail_outbox').set({ sent_at: new Date().toISOString(), attempts: 1 }).where('id', '=', id).execute();
    } catch (err) {
      this.log.warn({ err, mailId: id }, 'mail delivery failed; it stays in the outbox');
      await this.db
        .updateTable('mail_outbox')
        .set({ attempts: 1, error: String((err as Error).message).slice(0, 500) })
        .where('id', '=', id)
        .execute();
    }
  }
}
