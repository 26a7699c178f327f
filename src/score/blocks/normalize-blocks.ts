/**
 * OmniDocBench's normalisation of text blocks and display formulas before matching and scoring
 * (its `textblock2unicode` + `clean_string` and `normalized_formula`; docs/metrics.md "Blocks").
 *
 * Text: an inline formula whose body holds `\`, `^` or `_` is rewritten as the text it reads as, then
 * everything but letters, digits, `_` and CJK ideographs is dropped. OmniDocBench reads the formula with
 * pylatexenc's LaTeX-to-text; no npm package does that conversion, and only the letters it produces survive
 * the next step, so {@link latexToLetters} keeps what matters: the arguments' text, Greek and other letter
 * macros as their Unicode letters, accents composed; other macros vanish, as their symbols would.
 */

const GREEK: Record<string, string> = {
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  delta: 'δ',
  epsilon: 'ϵ',
  varepsilon: 'ε',
  zeta: 'ζ',
  eta: 'η',
  theta: 'θ',
  vartheta: 'ϑ',
  iota: 'ι',
  kappa: 'κ',
  lambda: 'λ',
  mu: 'μ',
  nu: 'ν',
  xi: 'ξ',
  pi: 'π',
  varpi: 'ϖ',
  rho: 'ρ',
  varrho: 'ϱ',
  sigma: 'σ',
  varsigma: 'ς',
  tau: 'τ',
  upsilon: 'υ',
  phi: 'ϕ',
  varphi: 'φ',
  chi: 'χ',
  psi: 'ψ',
  omega: 'ω',
  Gamma: 'Γ',
  Delta: 'Δ',
  Theta: 'Θ',
  Lambda: 'Λ',
  Xi: 'Ξ',
  Pi: 'Π',
  Sigma: 'Σ',
  Upsilon: 'Υ',
  Phi: 'Φ',
  Psi: 'Ψ',
  Omega: 'Ω',
  ell: 'ℓ',
  hbar: 'ħ',
  imath: 'ı',
  jmath: 'ȷ',
  aleph: 'ℵ',
  ss: 'ß',
  ae: 'æ',
  AE: 'Æ',
  oe: 'œ',
  OE: 'Œ',
  o: 'ø',
  O: 'Ø',
  l: 'ł',
  L: 'Ł',
  i: 'ı',
  AA: 'Å',
  aa: 'å',
};

const ACCENTS: Record<string, string> = {
  "'": '\u0301',
  '`': '\u0300',
  '^': '\u0302',
  '"': '\u0308',
  '~': '\u0303',
  '=': '\u0304',
  '.': '\u0307',
  c: '\u0327',
  v: '\u030C',
  u: '\u0306',
  H: '\u030B',
};

/**
 * The letters and digits a LaTeX fragment reads as: macros that name a letter become it, accent macros
 * compose with their argument, every other macro disappears (its arguments stay), braces go.
 */
export function latexToLetters(latex: string): string {
  return (
    latex
      // Environments read as their body; an array's or tabular's column specification is not text.
      .replace(/\\begin\{(array|tabular)\*?\}(\[[^\]]*\])?\{[^{}]*\}/g, '')
      .replace(/\\(begin|end)\{[^{}]*\}/g, '')
      .replace(
        /\\([a-zA-Z]+|.)\s*(\{([^{}]*)\}|[a-zA-Z])?/g,
        (whole, name: string, arg: string | undefined, inner: string | undefined) => {
          const argument = inner ?? arg ?? '';
          if (ACCENTS[name] !== undefined && argument !== '' && !/^[a-zA-Z]{2,}$/.test(name)) {
            return `${argument.slice(0, 1)}${ACCENTS[name]}${argument.slice(1)}`.normalize('NFC');
          }
          const letter = GREEK[name];
          if (letter !== undefined) return `${letter}${argument}`;
          if (/^[a-zA-Z]+$/.test(name)) return argument;
          // `\%`, `\{`, `\,` …: the character itself (anything not a letter is dropped later anyway).
          return whole.slice(1);
        },
      )
      .replace(/[{}]/g, '')
  );
}

const INLINE = /\$(.*?)\$|\\\((.*?)\\\)/g;

/** Inline formulas that carry LaTeX markup rewritten as their text (OmniDocBench's `textblock2unicode`). */
export function inlineFormulasToText(text: string): string {
  return text.replace(INLINE, (whole, dollar: string | undefined, paren: string | undefined) => {
    const clean = (dollar ?? paren ?? '').replace(/\\[\\_&%^]/g, '');
    if (!/[\\^_]/.test(clean)) return whole;
    return latexToLetters(clean).trim();
  });
}

/** Letters, digits, `_` and CJK ideographs only (OmniDocBench's `clean_string`). */
export function keepWordCharacters(text: string): string {
  return text.replace(/\\t|\\n|\/t|\/n|[\t\n]/g, '').replace(/[^\p{L}\p{N}_\u4e00-\u9fff]/gu, '');
}

/** A text block as OmniDocBench compares it. */
export function normalizeTextBlock(text: string): string {
  return keepWordCharacters(inlineFormulasToText(text));
}

/** Macros OmniDocBench deletes from formulas, in its order (so `\mathbfcal` loses `\mathbf` first). */
const FORMULA_NOISE = [
  '\\mathbf',
  '\\mathrm',
  '\\mathnormal',
  '\\mathit',
  '\\mathbb',
  '\\mathcal',
  '\\mathscr',
  '\\mathfrak',
  '\\mathsf',
  '\\mathtt',
  '\\textbf',
  '\\text',
  '\\boldmath',
  '\\boldsymbol',
  '\\operatorname',
  '\\bm',
  '\\symbfit',
  '\\mathbfcal',
  '\\symbf',
  '\\scriptscriptstyle',
  '\\notag',
  '\\setlength',
  '\\coloneqq',
  '\\space',
  '\\thickspace',
  '\\thinspace',
  '\\medspace',
  '\\nobreakspace',
  '\\negmedspace',
  '\\quad',
  '\\qquad',
  '\\enspace',
  '\\substackw',
  ' ',
];

/** A display formula as OmniDocBench compares it (its `normalized_formula`). */
export function normalizeFormula(latex: string): string {
  let text = latex;
  const delimited = /\\\[(.+?)(?<!\\)\\\]/.exec(text);
  if (delimited) text = (delimited[1] ?? '').trim();
  text = text
    .replace(/\\tag\{.*?\}/g, '')
    .replace(/\\hspace\{.*?\}/g, '')
    .replace(/\\begin\{.*?\}/g, '')
    .replace(/\\end\{.*?\}/g, '')
    .replace(/\\arraycolsep.*?\}/g, '')
    .replace(/^\.+|\.+$/g, '');
  for (const noise of FORMULA_NOISE) text = text.replaceAll(noise, '');
  return text.toLowerCase();
}
