/* Calendar arithmetic on the proleptic Gregorian calendar: leap years,
 * month lengths, and normalising a date in place through int pointers. */

int is_leap_year(int year)
{
    if (year % 400 == 0)
        return 1;
    if (year % 100 == 0)
        return 0;
    return year % 4 == 0;
}

/* Number of days in `month` (1..12) of `year`, or 0 for a bad month. */
int days_in_month(int year, int month)
{
    switch (month) {
    case 2:
        return is_leap_year(year) ? 29 : 28;
    case 4:
    case 6:
    case 9:
    case 11:
        return 30;
    case 1:
    case 3:
    case 5:
    case 7:
    case 8:
    case 10:
    case 12:
        return 31;
    default:
        return 0;
    }
}

/* Returns 1 when year/month/day name a real day between years 1 and 9999. */
int is_valid_date(int year, int month, int day)
{
    if (year < 1 || year > 9999)
        return 0;
    if (month < 1 || month > 12)
        return 0;
    return day >= 1 && day <= days_in_month(year, month);
}

/* Carries an out-of-range day or month into the neighbouring month or year,
 * e.g. 2023-13-01 becomes 2024-01-01 and 2024-03-00 becomes 2024-02-29.
 * Only one step of carry is done; day must be in 0..32 and month in 0..13.
 * Returns 0 on success, -1 when the input is too far out of range (the
 * date is then left unchanged). */
int normalize_date(int *year, int *month, int *day)
{
    if (*month < 0 || *month > 13 || *day < 0 || *day > 32)
        return -1;
    if (*year < 2 || *year > 9998)
        return -1;

    if (*month == 0) {
        *month = 12;
        *year -= 1;
    } else if (*month == 13) {
        *month = 1;
        *year += 1;
    }

    int length = days_in_month(*year, *month);
    if (*day == 0) {
        if (*month == 1) {
            *month = 12;
            *year -= 1;
        } else {
            *month -= 1;
        }
        *day = days_in_month(*year, *month);
    } else if (*day > length) {
        *day -= length;
        if (*month == 12) {
            *month = 1;
            *year += 1;
        } else {
            *month += 1;
        }
    }
    return 0;
}

/* Day of the year (1..366) for a valid date, -1 otherwise. */
int day_of_year(int year, int month, int day)
{
    if (!is_valid_date(year, month, day))
        return -1;
    int total = day;
    for (int m = 1; m < month; m++)
        total += days_in_month(year, m);
    return total;
}
