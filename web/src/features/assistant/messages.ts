import { ASSISTANT_MESSAGES } from '@bolx/contracts';
import { addMessages } from '../../lib/i18n/catalog';

/** The chat's English texts (spec sections 2 and 8), added to the catalogue when its chunk loads. */
addMessages({
  'assistant.title': 'Chat with AI Assistant',
  'assistant.status': 'We are online!',
  'assistant.close': 'Close chat',
  'assistant.reset': 'Reset Chat',
  'assistant.rollback': 'Rollback',
  'assistant.viewChart': 'View Data Chart of this client',
  'assistant.downloadChart': 'Download Chart',
  'assistant.chartTitle': '{label} · {client}',
  'assistant.send': 'Send',
  'assistant.placeholder': 'Ask, e.g. orders shipped last week',
  'assistant.ask.warehouse': 'Hello! I answer questions about your orders and receiving orders. Pick a warehouse, or type a question.',
  'assistant.ask.client': 'Which client in {warehouse}?',
  'assistant.ask.query': 'What would you like to know about {client}?',
  'assistant.ask.time': 'For which period?',
  'assistant.ask.again': 'Anything else about {client}? Pick another query.',
  'assistant.answer': '{label} for {client} in {warehouse}, {range}: {total}',
  'assistant.ranQuery': 'Query: {label} · client {client} · warehouse {warehouse} · {from}{to} ({range}, {zone})',
  'assistant.noWarehouses': 'There are no warehouses you can ask about.',
  'assistant.clientsFailed': ASSISTANT_MESSAGES.clientsFailed,
  'assistant.analysisFailed': ASSISTANT_MESSAGES.analysisFailed,
  'assistant.chartFailed': 'The chart could not be loaded. Please try again.',
  'assistant.typing': 'The assistant is typing',
});
