export declare const LAYERS: Record<string, readonly string[] | '*'>;
