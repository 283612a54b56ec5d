/** The last row of a sidebar list that shows its first entries: show all of them, or fewer again. */
import { Button } from '../kit/Button.js';

export function MoreToggle(props: { what: string; open: boolean; onToggle(): void }) {
  return (
    <li>
      <Button variant="link" onClick={() => props.onToggle()} aria-expanded={props.open}>
        {props.open ? `Fewer ${props.what}` : `More ${props.what}`}
      </Button>
    </li>
  );
}
