select
    o.order_id,
    o.customer_id,
    c.first_name || ' ' || c.last_name as customer_name,
    o.amount
from {{ ref('raw_orders') }} o
join {{ ref('raw_customers') }} c on c.id = o.customer_id
where o.status = 'shipped'
