// Every kind `poolpatrol import KIND` knows, with the schema of its mapping file.
import { employeeKind, importMappingSchema } from "./employee-import.js";
import type { ImportKind, ImportKindName, ImportMapping } from "./record-import.js";
import { riderKind, riderMappingSchema } from "./rider-import.js";
import { shiftKind, shiftMappingSchema } from "./shift-import.js";
import { vanpoolKind, vanpoolMappingSchema } from "./vanpool-import.js";

export type AnyImportKind = ImportKind<unknown, string>;

interface Importable {
  kind: AnyImportKind;
  mapping: {
    safeParse(
      data: unknown,
    ):
      | { success: true; data: ImportMapping }
      | { success: false; error: { issues: { path: PropertyKey[]; message: string; code: string }[] } };
  };
}

export const IMPORTABLE: Record<ImportKindName, Importable> = {
  employees: { kind: employeeKind as unknown as AnyImportKind, mapping: importMappingSchema },
  shifts: { kind: shiftKind as unknown as AnyImportKind, mapping: shiftMappingSchema },
  vanpools: { kind: vanpoolKind as unknown as AnyImportKind, mapping: vanpoolMappingSchema },
  riders: { kind: riderKind as unknown as AnyImportKind, mapping: riderMappingSchema },
};
