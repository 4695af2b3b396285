import { operations } from "../support/routes";
import { sweepBadInput } from "./bad-input";

sweepBadInput(operations.filter((op) => op.method === "get"));
