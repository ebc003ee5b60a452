import { expect, test } from 'vitest';
import { patientTimeout } from '../../src/wire/patient-timer.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // the event loop is starved, as on a loaded machine
  }
}

test('a starved event loop lengthens the wait instead of ending it unseen', async () => {
  let plainFired = false;
  let patientFired = false;
  setTimeout(() => (plainFired = true), 600);
  const fired = new Promise<void>((resolve) =>
    patientTimeout(600, () => {
      patientFired = true;
      resolve();
    }),
  );
  block(1000);
  await turn();
  await turn();
  expect(plainFired).toBe(true);
  expect(patientFired).toBe(false);
  await fired;
  expect(patientFired).toBe(true);
});

test('a cancelled wait never fires, and a zero wait fires', async () => {
  let fired = 0;
  const cancel = patientTimeout(150, () => fired++);
  cancel();
  await new Promise<void>((resolve) => patientTimeout(0, resolve));
  await new Promise((resolve) => setTimeout(resolve, 400));
  expect(fired).toBe(0);
});

test('a saturated event loop lengthens the wait: answers queued behind other work still count', async () => {
  let plainFired = false;
  let patientFired = false;
  setTimeout(() => (plainFired = true), 600);
  const fired = new Promise<void>((resolve) =>
    patientTimeout(600, () => {
      patientFired = true;
      resolve();
    }),
  );
  // Busy in short slices (no single late tick), as when many scenarios share one event loop.
  const until = performance.now() + 1000;
  while (performance.now() < until) {
    block(20);
    await turn();
  }
  expect(plainFired).toBe(true);
  expect(patientFired).toBe(false);
  await fired;
  expect(patientFired).toBe(true);
});
