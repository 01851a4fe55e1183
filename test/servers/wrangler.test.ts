import { describeHttpContract } from './http-contract.ts';
import { wranglerServer } from './wrangler.ts';

describeHttpContract(wranglerServer(process.env), process.env);
