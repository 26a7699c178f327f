/**
 * The part of onnxruntime-node's API the PP-OCR reader uses (pp-ocr.ts), declared here: the pinned 1.17.0 —
 * the last release without an install script that downloads from outside the npm registry
 * (docs/reference.md) — ships no type declarations of its own.
 */
declare module 'onnxruntime-node' {
  export interface Tensor {
    readonly dims: readonly number[];
    readonly data: unknown;
  }
  export const Tensor: new (type: 'float32', data: Float32Array, dims: number[]) => Tensor;
  export interface SessionOptions {
    intraOpNumThreads?: number;
    interOpNumThreads?: number;
    graphOptimizationLevel?: 'disabled' | 'basic' | 'extended' | 'all';
  }
  export interface InferenceSession {
    readonly inputNames: readonly string[];
    readonly outputNames: readonly string[];
    run(feeds: Record<string, Tensor>): Promise<Record<string, Tensor>>;
  }
  export const InferenceSession: { create(path: string, options?: SessionOptions): Promise<InferenceSession> };
}
