import './select.css';

/**
 * Spec section 9: dropdown lists scroll beyond 7 options, at most 200px high. Options are 28px tall (select.css),
 * so seven fit in 200px and the eighth starts the scroll. Every Select of a list or form spreads these props.
 */
export const SELECT_LIST_HEIGHT = 200;
export const SELECT_ITEM_HEIGHT = 28;

export const selectProps = {
  listHeight: SELECT_LIST_HEIGHT,
  listItemHeight: SELECT_ITEM_HEIGHT,
  showSearch: true,
  optionFilterProp: 'label',
  classNames: { popup: { root: 'bolx-select-popup' } },
} as const;
