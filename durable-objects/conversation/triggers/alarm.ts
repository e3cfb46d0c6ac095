// The object has one alarm, shared by a question's deadline, the index outbox's retries and the running
// turn's watchdog: each asks for a time, and an alarm already due by then is kept (whoever it was set
// for, the handler does what is due and asks again).

/** Sets the alarm to `at` unless one is already set at or before it. True when it was set. */
export async function alarmBy(storage: DurableObjectStorage, at: number): Promise<boolean> {
  const current = await storage.getAlarm();
  if (current !== null && current <= at) return false;
  await storage.setAlarm(at);
  return true;
}
