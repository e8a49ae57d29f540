/** What is wrong with a password, in the shape of the API's field errors. */
export interface PasswordProblem {
  message: string;
  code: 'invalid';
  fields: string;
}

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;

/** The password policy: returns what is wrong with a new password, empty when it is acceptable. */
export function passwordPolicyErrors(password: string, email: string, field = 'password'): PasswordProblem[] {
  const errors: PasswordProblem[] = [];
  if (password.length < MIN_PASSWORD_LENGTH) {
    errors.push({ message: `the password must be at least ${MIN_PASSWORD_LENGTH} characters long`, code: 'invalid', fields: field });
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    errors.push({ message: `the password must be at most ${MAX_PASSWORD_LENGTH} characters long`, code: 'invalid', fields: field });
  }
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) {
    errors.push({ message: 'the password must not be the e-mail address', code: 'invalid', fields: field });
  }
  return errors;
}
