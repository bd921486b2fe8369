// Catching the API's refusals in unit tests: the ApiError a call throws (anything else is rethrown),
// or undefined when it returns, so each test reduces it to what it asserts on.
import { ApiError } from "../../src/errors";

export function apiErrorOf(fn: () => unknown): ApiError | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  return undefined;
}

export async function apiErrorOfAsync(promise: Promise<unknown>): Promise<ApiError | undefined> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  return undefined;
}

/** The refusal a call must give; a call that returns fails the test. */
export function refusalOf(fn: () => unknown): ApiError {
  const err = apiErrorOf(fn);
  if (!err) throw new Error("expected a refusal, got a value");
  return err;
}

export async function refusalOfAsync(promise: Promise<unknown>): Promise<ApiError> {
  const err = await apiErrorOfAsync(promise);
  if (!err) throw new Error("expected a refusal");
  return err;
}
