import { defaultBounds, formatBounds } from '../model/bounds.js';
console.log(formatBounds({ ...defaultBounds, deletes: 1, unsolicited: 1 }));
