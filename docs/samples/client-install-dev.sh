npm install -D @trading-wallet-settlement/api-contract @stoplight/prism-http   # the peer only for the mock
