// The name every session key (`gw token`, `gw run`) carries: the CLI's `gw keys list` and the
// console's Keys page both hide keys by it unless asked, so they must read the same constant.
export const SESSION_KEY_NAME = 'gw token';
