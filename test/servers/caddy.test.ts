import { caddyServer } from './caddy.ts';
import { describeHttpContract } from './http-contract.ts';

describeHttpContract(caddyServer(process.env), process.env);
