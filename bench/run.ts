/** `npm run bench`: runs every benchmark and records the figures in bench/RESULTS.md. */
import { benchPastes } from './pastes.bench.ts';

await benchPastes();
