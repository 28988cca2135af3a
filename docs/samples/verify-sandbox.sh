# Every case runs against the package's sandbox, on an account verify prepares through the control API.
npx api-contract sandbox --port 4020 --quiet &
npx api-contract wait http://127.0.0.1:4020/v1                # until the sandbox answers
npx api-contract verify --base-url http://127.0.0.1:4020/v1   # 0 failed, 0 skipped
