// Work that should not delay a turn's final frames. The output gate holds those frames until the
// turn's last writes commit; once it opens they leave one socket write at a time, and any write or D1
// batch started in that moment (an alarm change, an index flush; local D1 even runs on the object's
// thread) goes before them. So such bookkeeping waits for the commit and then a short pause.

/** Long enough for a handful of frames to leave on a loaded machine; nothing waits on it but bookkeeping. */
const FRAMES_LEAVE_MS = 20;

/** Once everything written so far has committed and the frames it held have left. */
export async function finalFramesLeft(storage: DurableObjectStorage): Promise<void> {
  await storage.sync();
  await scheduler.wait(FRAMES_LEAVE_MS);
}

/** Runs `work` once everything written so far has committed and the frames it held have left. */
export async function afterFinalFrames<T>(storage: DurableObjectStorage, work: () => T | Promise<T>): Promise<T> {
  await finalFramesLeft(storage);
  return work();
}
