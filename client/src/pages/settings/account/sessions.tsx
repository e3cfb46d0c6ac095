// Settings → Account: placeholder for issue 43's part (Sessions).
export function Sessions() {
  return null;
}
