import { describeHttpContract } from './http-contract.ts';
import { nginxServer } from './nginx.ts';

describeHttpContract(nginxServer(process.env), process.env);
