export { Account, AccountArgs } from "./account";
