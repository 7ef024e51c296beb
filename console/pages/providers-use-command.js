// A loader for a command's answer (the remote CLI's --json output), with a reload after a change.
import { useEffect, useState } from '/ui/vendor/preact-htm.js';

export function useCommand(load, deps = []) {
  const [state, setState] = useState({ data: null, error: null });
  const reload = () => load().then((data) => setState({ data, error: null }), (error) => setState({ data: null, error: error.message }));
  useEffect(() => { reload(); }, deps);
  return [state, reload];
}
