/** The sample generator's defaults, apart from the generator so that the CLI can show them without loading it. */
export const SAMPLE_DEFAULT_SEED = 20261121;
export const SAMPLE_DEFAULT_COUNT = 36;
