/* Functions that read and write global state: a door controller state
 * machine and a rate limiter with a global counter. */

enum door_state { DOOR_CLOSED, DOOR_OPENING, DOOR_OPEN, DOOR_CLOSING, DOOR_LOCKED };
enum door_event { EV_BUTTON, EV_FULLY_MOVED, EV_OBSTACLE, EV_LOCK, EV_UNLOCK };

enum door_state door = DOOR_CLOSED;
unsigned door_moves;

/* Advances the door controller by one event; returns 1 when the event
 * changed the state, 0 when it was ignored, -1 for an unknown event. */
int door_step(int event)
{
    enum door_state next = door;
    switch (event) {
    case EV_BUTTON:
        if (door == DOOR_CLOSED || door == DOOR_CLOSING)
            next = DOOR_OPENING;
        else if (door == DOOR_OPEN || door == DOOR_OPENING)
            next = DOOR_CLOSING;
        break;
    case EV_FULLY_MOVED:
        if (door == DOOR_OPENING)
            next = DOOR_OPEN;
        else if (door == DOOR_CLOSING)
            next = DOOR_CLOSED;
        break;
    case EV_OBSTACLE:
        if (door == DOOR_CLOSING)
            next = DOOR_OPENING;
        break;
    case EV_LOCK:
        if (door == DOOR_CLOSED)
            next = DOOR_LOCKED;
        break;
    case EV_UNLOCK:
        if (door == DOOR_LOCKED)
            next = DOOR_CLOSED;
        break;
    default:
        return -1;
    }
    if (next == door)
        return 0;
    if (next == DOOR_OPENING || next == DOOR_CLOSING)
        door_moves++;
    door = next;
    return 1;
}

/* A token bucket: at most `bucket_capacity` requests in a burst, refilled
 * by `tick`. */
static int tokens = 3;
static const int bucket_capacity = 3;
unsigned long requests_refused;

/* Takes a token for a request: 1 when allowed, 0 when refused. */
int rate_limit_request(void)
{
    if (tokens > 0) {
        tokens--;
        return 1;
    }
    requests_refused++;
    return 0;
}

/* Adds `elapsed` tokens, up to the capacity; returns the tokens now held. */
int rate_limit_tick(int elapsed)
{
    if (elapsed <= 0)
        return tokens;
    if ((long long)tokens + elapsed >= bucket_capacity)
        tokens = bucket_capacity;
    else
        tokens += elapsed;
    return tokens;
}
