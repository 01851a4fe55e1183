import { describeHttpContract } from './http-contract.ts';
import { previewServer } from './preview.ts';

describeHttpContract(previewServer(), process.env);
