/** Types of node-binding.mjs (plain JavaScript, shared with the stat workers). */
export declare function nodeBinding(name: 'fs' | 'zlib'): any;
