// The admin page (/admin, docs/protocol.md "Administration"): shown to admins only (routed-page.tsx; the
// Worker answers the address with a 404 for anyone else) and loaded as a chunk of its own. Four sections:
// the users (search, status, approve, disable, enable, roles, quotas), invite links, usage across users,
// and the audit log of every admin action.
import { useState } from "preact/hooks";
import { PageFrame } from "../../components/page-frame";
import { AuditLog } from "./audit";
import { Invites } from "./invites";
import style from "./style.module.css";
import { AdminUsage } from "./usage";
import { Users } from "./users";

const SECTIONS = [
  { id: "users", label: "Users" },
  { id: "invites", label: "Invites" },
  { id: "usage", label: "Usage" },
  { id: "audit", label: "Audit log" },
] as const;
type Section = (typeof SECTIONS)[number]["id"];

export function AdminPage() {
  const [section, setSection] = useState<Section>("users");
  return (
    <PageFrame
      title="Admin"
      width="wide"
      testid="admin-page"
      intro="Who uses this server, what they spend of its models, and who may join."
    >
      <div class={style.tabs} role="tablist" aria-label="Admin sections">
        {SECTIONS.map(({ id, label }) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={id === section}
            class={`${style.tab} ${id === section ? style.active : ""}`}
            onClick={() => setSection(id)}
            data-testid={`admin-tab-${id}`}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" class={style.panel}>
        {section === "users" && <Users />}
        {section === "invites" && <Invites />}
        {section === "usage" && <AdminUsage />}
        {section === "audit" && <AuditLog />}
      </div>
    </PageFrame>
  );
}
