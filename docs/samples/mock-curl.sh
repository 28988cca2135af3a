curl -s http://127.0.0.1:4010/v1/currencies/fiat-rates
curl -s -H 'x-api-key: anything' -H 'Prefer: code=429' http://127.0.0.1:4010/v1/trades/summary/me
curl -s -H 'x-api-key: anything' -H 'Prefer: example=empty' http://127.0.0.1:4010/v1/invoices/me
