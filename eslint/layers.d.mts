export declare const LAYERS: Record<string, readonly string[] | '*'>;
export declare const PURE: Record<string, { readonly pure: readonly string[]; readonly files: readonly string[]; readonly packages: readonly string[] }>;
export declare const SPEC_IMPORTS: { readonly packages: readonly string[]; readonly folders: readonly string[] };
export declare const NEVER: ReadonlyArray<{ readonly from: string; readonly to: string; readonly typeOnly?: Readonly<Record<string, readonly string[]>> }>;
export declare const WEB_IMPORTS: readonly string[];
