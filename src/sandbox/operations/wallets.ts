// The caller's wallets: one by currency code (Get Wallet Balance, documented with USDT, and its form for any
// code), and all of them (Get My Wallets, observed in the official client), each as the state holds it now.
import { REFUSAL_STATUS } from "../rules.js";
import { type AccountCall, answered, withAccount, type OperationModule } from "../engine.js";
import { refuse } from "../refusal.js";
import { walletView } from "../views.js";

/** The wallet of `code` of the caller, or 404 for a code the catalogue does not have. */
function walletAnswer(call: AccountCall, code: string) {
  const wallet = call.account.wallets.find((candidate) => candidate.code === code);
  if (!wallet) return refuse(REFUSAL_STATUS.notFound, `the account has no wallet of ${code}`);
  return answered(call, walletView(call.engine, call.account, wallet));
}

/** GET /wallets/USDT: the path names its code (the last segment of the operation's path). */
const getWalletBalance = withAccount((call) => walletAnswer(call, call.request.operation.path.split("/").pop() ?? ""));

const getWalletBalanceByCode = withAccount((call) => walletAnswer(call, call.request.params.currencyCode ?? ""));

const getMyWallets = withAccount((call) =>
  answered(
    call,
    call.account.wallets.map((wallet) => walletView(call.engine, call.account, wallet)),
  ),
);

/** What this module answers, the refusals it answers with, the register entries it applies (operations/index.ts). */
export const walletOperations: OperationModule = {
  handlers: { getWalletBalance, getWalletBalanceByCode, getMyWallets },
  refusals: ["notFound", "keylessAccountRead"],
  choices: ["wallets.balances", "accounts.keyless"],
};
