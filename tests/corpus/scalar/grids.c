/* Small fixed grids and tables: concrete work that must not eat the
 * budget (a 4x4 board, a flood fill by recursion, a 256-entry table). */

#define SIDE 4
#define EMPTY 0
#define WALL 1
#define PAINT 2

static int board[SIDE][SIDE];

/* Lays out a fixed pattern of walls, then counts the walls on the row
 * `row` and compares with `expected`. */
int walls_on_row(int row, int expected)
{
    int r, c, walls = 0;
    for (r = 0; r < SIDE; r++)
        for (c = 0; c < SIDE; c++) {
            board[r][c] = EMPTY;
            if ((r + 2 * c) % 3 == 0)
                board[r][c] = WALL;
        }
    if (row < 0 || row >= SIDE)
        return -1;
    for (c = 0; c < SIDE; c++)
        if (board[row][c] == WALL)
            walls++;
    if (walls == expected)
        return 1;
    return 0;
}

/* Paints the empty cells connected to (r, c); returns how many. */
static int paint_from(int cells[SIDE][SIDE], int r, int c)
{
    if (r < 0 || r >= SIDE || c < 0 || c >= SIDE)
        return 0;
    if (cells[r][c] != EMPTY)
        return 0;
    cells[r][c] = PAINT;
    return 1 + paint_from(cells, r + 1, c) + paint_from(cells, r - 1, c) +
           paint_from(cells, r, c + 1) + paint_from(cells, r, c - 1);
}

/* A board with a wall down column 2, with a gap in its last row when
 * `gap` is set: painting from the left reaches the right side only
 * through the gap. */
int flood_reaches_right(int r, int c, int gap)
{
    int cells[SIDE][SIDE] = {{0}};
    int i, painted;
    for (i = 0; i < SIDE; i++)
        if (!gap || i < SIDE - 1)
            cells[i][2] = WALL;
    if (r < 0 || r >= SIDE || c < 0 || c >= SIDE)
        return -1;
    if (cells[r][c] == WALL)
        return -2;
    painted = paint_from(cells, r, c);
    if (cells[0][SIDE - 1] == PAINT)
        return painted;
    return 0;
}

/* Paints the cells a caller's board leaves empty, from one corner. */
int paint_board(int cells[SIDE][SIDE], int r, int c)
{
    int painted = paint_from(cells, r, c);
    if (painted > SIDE)
        return 2;
    if (painted > 0)
        return 1;
    return 0;
}

/* Builds a 256-entry table of bit parities, then answers for `byte`. */
int parity_of(unsigned char byte)
{
    unsigned char parity[256];
    int i, bits;
    for (i = 0; i < 256; i++) {
        bits = i ^ (i >> 4);
        bits ^= bits >> 2;
        bits ^= bits >> 1;
        parity[i] = bits & 1;
    }
    if (parity[byte])
        return 1;
    return 0;
}
