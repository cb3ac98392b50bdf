// The stop-word lists of the `stopword` package (it ships no types): one array of lower-case words per language.
declare module "stopword" {
  export const eng: string[];
  export const spa: string[];
  export const por: string[];
  export const tgl: string[];
  export const vie: string[];
}
