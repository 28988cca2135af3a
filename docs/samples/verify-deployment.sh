# A deployment checked from your CI; the key and secret from the environment, never the command line.
CONTRACT_API_KEY=… CONTRACT_API_SECRET=… npx api-contract verify \
  --base-url https://staging.example.com/v1 --param quoteId=… --report-dir reports/contract
