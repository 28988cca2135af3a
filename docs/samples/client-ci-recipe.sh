# CI: the mock in the background, your tests against it
npx api-contract mock --port 0 --quiet --ready-file mock-url.txt & MOCK=$!
trap 'kill -TERM "$MOCK" 2>/dev/null || true; wait "$MOCK" || true' EXIT
MOCK_URL=$(npx api-contract wait --ready-file mock-url.txt) || exit 1
API_BASE_URL="$MOCK_URL" npm test     # your tests, with the mock's base URL in API_BASE_URL
