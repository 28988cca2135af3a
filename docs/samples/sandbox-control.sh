# An account for the key my-key with 100 USDT, then the sandbox clock 31 s later (every key's quotes age).
curl -s -X PUT -H 'content-type: application/json' -d '{"balances":{"USDT":100}}' \
  http://127.0.0.1:4020/_sandbox/accounts/my-key
curl -s -X POST -H 'content-type: application/json' -d '{"ms":31000}' http://127.0.0.1:4020/_sandbox/clock/advance
