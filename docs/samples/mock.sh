# The whole API, answering its documented examples, on http://127.0.0.1:4010/v1 (--port 0 picks a free port).
npx api-contract mock
# In another shell: any key is accepted where one is needed; Prefer picks another documented answer.
curl -s -H 'X-API-KEY: any-value' http://127.0.0.1:4010/v1/currencies/fiat-rates
curl -s -i -H 'X-API-KEY: any-value' -H 'Prefer: code=429' http://127.0.0.1:4010/v1/currencies/fiat-rates
