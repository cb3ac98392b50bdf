/** A markdown table's rows in an answer's text, as cells, its header first (the separator row left out). */
export const markdownTableRows = (text: string): string[][] =>
  text
    .split("\n")
    .filter((line) => line.startsWith("|") && !line.startsWith("| ---"))
    .map((line) =>
      line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim()),
    );
