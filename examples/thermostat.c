/* A thermostat: global state, a sensor without a body (the test scripts
 * its readings), and integer arithmetic that must not divide by zero. */

int read_temperature(void); /* provided by the firmware */

enum mode { IDLE, HEATING, COOLING };

enum mode mode = IDLE;
unsigned switches; /* how often the mode changed */

/* Chooses the mode for a target temperature with a hysteresis band. */
enum mode thermostat_step(int target, int band)
{
    if (band < 0 || band > 10 || target < -50 || target > 50)
        return mode;
    int now = read_temperature();
    enum mode next = mode;
    if (now < target - band)
        next = HEATING;
    else if (now > target + band)
        next = COOLING;
    else if (mode == HEATING && now >= target)
        next = IDLE;
    else if (mode == COOLING && now <= target)
        next = IDLE;
    if (next != mode) {
        switches++;
        mode = next;
    }
    return mode;
}

/* Average of up to three readings in tenths of a degree; -1 for a bad
 * sample count, -2 when a reading is out of the sensor's range. */
int average_tenths(int samples)
{
    if (samples <= 0 || samples > 3)
        return -1;
    int sum = 0;
    for (int i = 0; i < samples; i++) {
        int reading = read_temperature();
        if (reading < -100 || reading > 100)
            return -2;
        sum += reading;
    }
    return sum * 10 / samples;
}
