// The OS keychain through @napi-rs/keyring (prebuilt, no libsecret needed). On
// Linux the store is pinned to the Secret Service: the default would fall back
// to the kernel keyring, which forgets everything at reboot (research C2). A
// locked or prompting keychain can hang instead of failing, so every call has a
// time-out (gh uses 3 s) and then counts as "no keychain".

export interface Keychain {
  set(account: string, secret: string): Promise<void>;
  get(account: string): Promise<string | null>;
  delete(account: string): Promise<boolean>;
}

const KEYCHAIN_SERVICE = 'gw';
const KEYCHAIN_TIMEOUT_MS = 3_000;

class KeychainUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeychainUnavailable';
  }
}

/** Runs one keychain call, giving up after `ms` even if the native call ignores the abort. */
export async function withTimeout<T>(run: (signal: AbortSignal) => Promise<T>, ms: number): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new KeychainUnavailable(`the keychain did not answer within ${Math.round(ms / 100) / 10} s`));
    }, ms);
    timer.unref();
  });
  try {
    return await Promise.race([run(controller.signal).catch((error: unknown) => {
      throw error instanceof KeychainUnavailable ? error : new KeychainUnavailable(error instanceof Error ? error.message : String(error));
    }), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The real keychain; loading the native binding can itself fail (unsupported platform). */
export function systemKeychain(timeoutMs = KEYCHAIN_TIMEOUT_MS): Keychain {
  const entry = async (account: string) => {
    const { AsyncEntry } = await import('@napi-rs/keyring');
    return new AsyncEntry(KEYCHAIN_SERVICE, account, { linux: { store: 'secret-service' } });
  };
  return {
    set: (account, secret) => withTimeout(async (signal) => (await entry(account)).setPassword(secret, signal), timeoutMs),
    get: (account) => withTimeout(async (signal) => (await entry(account)).getPassword(signal), timeoutMs),
    delete: (account) => withTimeout(async (signal) => (await entry(account)).deletePassword(signal), timeoutMs),
  };
}
