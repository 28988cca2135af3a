# Over HTTP: http://127.0.0.1:4020/v1, the control API at http://127.0.0.1:4020/_sandbox
npx api-contract sandbox [--port 4020] [--host 127.0.0.1] [--state <file>] [--config <file>] [--token <t>] \
  [--quiet] [--ready-file <path>]
