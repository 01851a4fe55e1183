import { apacheServer } from './apache.ts';
import { describeHttpContract } from './http-contract.ts';

describeHttpContract(apacheServer(process.env, 'vhost'), process.env);
describeHttpContract(apacheServer(process.env, 'htaccess'), process.env);
