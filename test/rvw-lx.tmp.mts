import { DateTime } from 'luxon';
import { isoDateTime } from '../src/areas/devtools/strftime.js';
for (const ts of [-62198755200000, -62167219200001, 253402300800000, 8.64e15, -8.64e15, -62198755200000 + 5]) for (const z of ['UTC', 'America/New_York', 'Asia/Kolkata']) {
  const dt = DateTime.fromMillis(ts, { zone: z });
  console.log(ts, z, dt.toISO({ suppressMilliseconds: true }), isoDateTime(dt));
}
