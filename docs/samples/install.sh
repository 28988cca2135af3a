# The package, and the mock's optional peer (Prism's engine; the sandbox needs no peer).
npm install -D @trading-wallet-settlement/api-contract @stoplight/prism-http
