import { test, expect } from 'vitest';
import { setup } from 'xstate';
test('toolchain loads xstate', () => { expect(typeof setup).toBe('function'); });
