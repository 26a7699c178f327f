import { UsageError } from '../../errors.js';

/**
 * The secret in an environment variable: the one an option names (`option`), or a provider's standard one
 * (`option` null, e.g. AWS_SECRET_ACCESS_KEY). Unset or empty stops that system before any call, naming the
 * variable (never a value).
 */
export function readSecret(
  env: Readonly<Record<string, string | undefined>>,
  system: string,
  option: string | null,
  variable: string,
): string {
  const value = env[variable];
  if (value === undefined || value === '') {
    const subject = option === null ? `systems.${system}` : `systems.${system}.${option}`;
    throw new UsageError(
      option === null
        ? `${variable}, which ${subject} reads, is not set`
        : `${variable}, named by ${subject}, is not set`,
      {
        subject,
        code: 'CONFIG_INVALID',
        hint: `export ${variable}=… before the run, or leave the system out with --systems`,
      },
    );
  }
  return value;
}
