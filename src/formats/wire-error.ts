// What each dialect's error encoder returns: a status, extra headers and a JSON body.
export interface WireError {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}
