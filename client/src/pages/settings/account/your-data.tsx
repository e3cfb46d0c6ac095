// Settings → Account: placeholder for issue 43's part (YourData).
export function YourData() {
  return null;
}
