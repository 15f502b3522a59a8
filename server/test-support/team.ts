import type { Role } from "../../src/contract/team.ts";
import type { TestClient, TestServer } from "./test-server.ts";

/** A new person who joined `farmId` with `role` through an invitation the farm's owner made and they accepted. */
export async function memberOf(server: TestServer, owner: TestClient, farmId: number, role: Role, person?: TestClient): Promise<TestClient> {
  const member = person ?? (await server.signUp());
  const created = await owner.post(`/api/farms/${farmId}/invitations`, { role });
  if (created.statusCode !== 201) throw new Error(`inviting failed: ${created.statusCode} ${created.body}`);
  const accepted = await member.post("/api/invitations/accept", { code: created.json().code });
  if (accepted.statusCode !== 200) throw new Error(`accepting failed: ${accepted.statusCode} ${accepted.body}`);
  return member;
}
