// The table's socket address follows the page's own scheme: wss: behind https (a TLS reverse proxy), ws: otherwise.
export function socketUrl(loc, path) {
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${loc.host}${path}`;
}
