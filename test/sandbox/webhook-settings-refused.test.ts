// pins: webhooks.destination
// An account's webhook settings are refused, saying why, unless the secret is a non-empty string and the URL an
// http(s) URL given as a string: an empty or non-string secret, or a URL object or array (whose text would parse),
// is a RangeError of putAccount, and nothing of the account is changed.
import { describe, expect, it } from "vitest";
import type { AccountSettings } from "../../src/sandbox/state.js";
import { newSandbox, thrownBy } from "./support/sandbox.js";
import { SECRET } from "./support/receiver.js";

const URL_TEXT = "http://127.0.0.1:9/hooks";

describe("webhook settings", () => {
  it("refuses an empty or non-string secret, and a URL that is not a string, with the reason", () => {
    const sandbox = newSandbox();
    const refused: [Record<string, unknown>, string][] = [
      [{ webhookSecret: "" }, "sandbox account key-a: webhookSecret must be a non-empty string"],
      [{ webhookSecret: 42 }, "sandbox account key-a: webhookSecret must be a non-empty string"],
      [{ webhookUrl: URL_TEXT, webhookSecret: "" }, "sandbox account key-a: webhookSecret must be a non-empty string"],
      [
        { webhookUrl: new URL(URL_TEXT), webhookSecret: SECRET },
        "sandbox account key-a: webhookUrl must be an http or https URL",
      ],
      [
        { webhookUrl: [URL_TEXT], webhookSecret: SECRET },
        "sandbox account key-a: webhookUrl must be an http or https URL",
      ],
    ];
    for (const [settings, message] of refused) {
      const error = thrownBy(() => sandbox.putAccount("key-a", settings as AccountSettings));
      expect(error, message).toBeInstanceOf(RangeError);
      expect(error!.message).toBe(message);
      expect(sandbox.getAccount("key-a")).toBeUndefined();
    }
    expect(sandbox.putAccount("key-a", { webhookUrl: URL_TEXT, webhookSecret: "s" })).toMatchObject({
      webhookUrl: URL_TEXT,
      hasWebhookSecret: true,
    });
  });
});
