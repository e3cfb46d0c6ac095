// Settings → Account: placeholder for issue 43's part (LinkedProviders).
export function LinkedProviders() {
  return null;
}
