# The client, its types, the contract validator and the sandbox: no peer needed.
npm install @trading-wallet-settlement/api-contract
